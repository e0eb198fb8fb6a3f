"""The addresses phones open, and their QR codes.

Phones scan a QR code rather than type an address; it encodes the LAN IP address,
not `companion.local`, because many Android phones cannot resolve mDNS names.
"""

from __future__ import annotations

import io
import socket

import segno


def lan_ip() -> str:
    """This machine's address on the local network (the route a phone would use)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent; this only picks a route
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def base_url(host: str, port: int) -> str:
    """The scoreboard's URL: the LAN IP when listening on all interfaces."""
    shown = lan_ip() if host in ("0.0.0.0", "::", "") else host
    return f"http://{shown}:{port}"


def terminal_qr(url: str) -> str:
    """The QR code of `url` drawn with block characters, for the terminal."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def svg_qr(url: str) -> str:
    """The QR code of `url` as an inline SVG element for the host page."""
    return segno.make(url, error="m").svg_inline(scale=6, border=2, dark="#111", light="#fff")


def svg_document(url: str) -> bytes:
    """The QR code of `url` as a standalone SVG file. A browser shows a file served as
    image/svg+xml as a picture only when its root carries the SVG namespace (the inline
    form has none: inside HTML the parser supplies it), else as an XML tree."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, dark="#111", light="#fff",
                                    title=f"QR code of {url}")
    return out.getvalue()
