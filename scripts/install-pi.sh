#!/usr/bin/env bash
# Installs table-companion as a service on Raspberry Pi OS (or any Debian), idempotently:
#   - apt packages: Python, espeak-ng and alsa-utils for spoken prompts, avahi so phones can
#     open http://companion.local:8000, and python3-picamera2 for the Pi camera;
#   - a system user `companion` (in the video and audio groups) owning /opt/table-companion;
#   - a virtual environment created with --system-site-packages, so Debian's picamera2
#     (which pip cannot build) is visible to the app;
#   - a systemd unit: starts at boot, Restart=on-failure, logs to journald;
#   - the host name `companion` announced by avahi (mDNS).
# Run as root from a checkout:   sudo bash scripts/install-pi.sh
# Then:  journalctl -u table-companion -f   shows the scoreboard URL and the host token.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" != 0 ]; then
  echo "install-pi: run as root (sudo bash scripts/install-pi.sh)" >&2
  exit 1
fi
command -v apt-get >/dev/null || { echo "install-pi: needs apt (Raspberry Pi OS or Debian)" >&2; exit 1; }

APP_DIR=/opt/table-companion
DATA_DIR=/var/lib/table-companion
CONFIG_DIR=/etc/table-companion
SERVICE=table-companion
HOSTNAME_WANTED="${COMPANION_HOSTNAME:-companion}"

packages=(python3-venv python3-dev espeak-ng libespeak-ng1 alsa-utils avahi-daemon libnss-mdns
          fonts-dejavu-core rsync)
# picamera2 exists only in Raspberry Pi OS's archive; elsewhere a USB webcam works through OpenCV.
apt-cache show python3-picamera2 >/dev/null 2>&1 && packages+=(python3-picamera2)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-pi: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

id -u companion >/dev/null 2>&1 || useradd --system --home-dir "$DATA_DIR" --shell /usr/sbin/nologin companion
usermod -a -G video,audio companion
install -d -o companion -g companion "$DATA_DIR"
install -d "$CONFIG_DIR" "$APP_DIR"

rsync -a --delete --exclude .git --exclude .venv --exclude '*.egg-info' --exclude __pycache__ ./ "$APP_DIR/src/"
if [ ! -x "$APP_DIR/venv/bin/python" ]; then
  python3 -m venv --system-site-packages "$APP_DIR/venv"
fi
"$APP_DIR/venv/bin/python" -m pip install -q --disable-pip-version-check "$APP_DIR/src"

if [ ! -f "$CONFIG_DIR/config.toml" ]; then
  cat > "$CONFIG_DIR/config.toml" <<TOML
# table-companion settings; \`companion config show\` lists every key with its meaning.
port = 8000
data_dir = "$DATA_DIR"
camera = "auto"
threads = 2
TOML
fi

cat > /etc/systemd/system/$SERVICE.service <<UNIT
[Unit]
Description=Table companion: card game scoreboard for every phone at the table
After=network-online.target sound.target avahi-daemon.service
Wants=network-online.target

[Service]
Type=simple
User=companion
Group=companion
SupplementaryGroups=video audio
Environment=COMPANION_CONFIG=$CONFIG_DIR/config.toml
Environment=PYTHONUNBUFFERED=1
WorkingDirectory=$DATA_DIR
ExecStart=$APP_DIR/venv/bin/companion start
Restart=on-failure
RestartSec=3
# exit status 2 is a settings mistake: restarting would only repeat it
RestartPreventExitStatus=2
StandardOutput=journal
StandardError=journal
NoNewPrivileges=true
ProtectSystem=full
ReadWritePaths=$DATA_DIR

[Install]
WantedBy=multi-user.target
UNIT

if [ "$(hostnamectl --static 2>/dev/null || hostname)" != "$HOSTNAME_WANTED" ]; then
  hostnamectl set-hostname "$HOSTNAME_WANTED" 2>/dev/null || hostname "$HOSTNAME_WANTED"
  grep -q "127.0.1.1.*$HOSTNAME_WANTED" /etc/hosts || echo "127.0.1.1 $HOSTNAME_WANTED" >> /etc/hosts
fi
systemctl enable --now avahi-daemon >/dev/null 2>&1 || true
systemctl restart avahi-daemon >/dev/null 2>&1 || true

systemctl daemon-reload
systemctl enable $SERVICE >/dev/null
systemctl restart $SERVICE
echo "install-pi: running. Phones open http://$HOSTNAME_WANTED.local:8000 (or the QR code);"
echo "install-pi: the host link and token: journalctl -u $SERVICE | grep 'Host page'"
