#!/usr/bin/env bash
# Installs the system packages paperkg needs when they are missing (Debian/Ubuntu, as root or with sudo):
# Java 17 and Maven for the local Neo4j; Tesseract's English language data for OCR of scanned pages (the engine
# itself ships inside PyMuPDF; extractors/ocr.py); with --browser, Chromium and ChromeDriver for the Browser test.
set -euo pipefail

want=()
java_ok() {
  local java="${PAPERKG_JAVA_HOME:+$PAPERKG_JAVA_HOME/bin/java}"
  java="${java:-$(command -v java || true)}"
  [ -n "$java" ] && "$java" -version 2>&1 | grep -Eq 'version "(17|21)[."]'
}
java_ok || want+=(openjdk-17-jre-headless)
command -v mvn >/dev/null || want+=(maven)
command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null || want+=(python3-venv)
compgen -G '/usr/share/tesseract-ocr/*/tessdata/eng.traineddata' >/dev/null || want+=(tesseract-ocr-eng)
if [ "${1:-}" = "--browser" ]; then
  command -v chromium >/dev/null || want+=(chromium)
  command -v chromedriver >/dev/null || want+=(chromium-driver)
fi
[ ${#want[@]} -eq 0 ] && exit 0

echo "Installing system packages: ${want[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "error: need root or sudo to install ${want[*]}; install them yourself and rerun" >&2; exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "error: no apt-get here; install ${want[*]} with your system's package manager and rerun" >&2; exit 1
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${want[@]}" >/dev/null
