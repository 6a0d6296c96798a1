#!/usr/bin/env bash
# Rebuilds public/fonts/bsc-pay-sc-{400,700}.woff2: Noto Sans CJK SC (SIL Open Font License 1.1)
# cut down to the Chinese characters the checkout shows, and glyphs.txt, the list a unit test
# holds the Chinese messages to (tests/unit/i18n-messages.test.ts). Run it after changing zh.ts.
# Needs fonttools + brotli (pip install fonttools brotli) and Debian's fonts-noto-cjk
# (apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb /tmp/cjk).
set -euo pipefail
cd "$(dirname "$0")/../../.."
SRC=${NOTO_CJK_DIR:-/tmp/cjk/usr/share/fonts/opentype/noto}
# Every character of zh.ts, the switcher's "简体中文" and what Intl writes in zh-CN dates and times
# (年月日, 上午/下午), outside ASCII and Latin (those come from the system font).
python3 - <<'PY' > lib/i18n/cjk-font/glyphs.txt
import re
text = open("lib/i18n/checkout/zh.ts", encoding="utf-8").read() + "简体中文" + "年月日上午下午"
chars = sorted({c for c in text if ord(c) >= 0x2E80})
print("".join(chars))
PY
for weight in 400:Regular 700:Bold; do
  pyftsubset "$SRC/NotoSansCJK-${weight#*:}.ttc" --font-number=2 --text-file=lib/i18n/cjk-font/glyphs.txt \
    --flavor=woff2 --layout-features='*' --no-hinting --desubroutinize --name-IDs='*' --output-file="public/fonts/bsc-pay-sc-${weight%%:*}.woff2"
done
ls -l public/fonts/
