#!/usr/bin/env bash
# Makes sure the services the test suite talks to are running on 127.0.0.1:
# PostgreSQL (5432, database "test"), MariaDB (3306, database "test"), Redis (6379),
# and that Debian's Chromium is installed for the browser tests.
set -euo pipefail

log() { printf '[services] %s\n' "$*"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

wait_for() { # name, command
  local name=$1; shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then log "$name is up"; return 0; fi
    sleep 1
  done
  log "$name did not come up"; return 1
}

apt_updated=0
apt_install() {
  if [ "$apt_updated" -eq 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# PostgreSQL
if ! command -v pg_ctlcluster >/dev/null 2>&1; then apt_install postgresql; fi
if ! pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1; then
  log "starting PostgreSQL"
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
wait_for PostgreSQL pg_isready -h 127.0.0.1 -p 5432
psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='test'" 2>/dev/null | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE test" >/dev/null 2>&1 || true

# MariaDB
if ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then apt_install mariadb-server; fi
if ! mariadb -uroot -h127.0.0.1 -e 'SELECT 1' >/dev/null 2>&1; then
  log "starting MariaDB"
  as_root mkdir -p /run/mysqld && as_root chown mysql:mysql /run/mysqld 2>/dev/null || true
  as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
fi
wait_for MariaDB mariadb -uroot -h127.0.0.1 -e 'SELECT 1'
mariadb -uroot -h127.0.0.1 -e 'CREATE DATABASE IF NOT EXISTS test' >/dev/null

# Redis
if ! command -v redis-server >/dev/null 2>&1; then apt_install redis-server; fi
if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  log "starting Redis"
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
wait_for Redis redis-cli -h 127.0.0.1 ping

# Chromium for the browser tests
if [ ! -x /usr/bin/chromium ]; then
  log "installing Chromium"
  apt_install chromium
fi
log "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo missing)"
