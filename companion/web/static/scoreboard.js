// The phone scoreboard starts here, not inline, so the page's CSP can forbid inline scripts.
"use strict";
Board.start();
