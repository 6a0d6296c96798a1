#!/usr/bin/env bash
# Rebuilds public/fonts/bsc-pay-sc-{400,700}.woff2: Noto Sans CJK SC (SIL Open Font License 1.1)
# cut down to the Chinese characters the payer's pages show, and glyphs.txt, the list of them.
# Which characters: glyphs.ts — every CJK character in app/, components/ and lib/ (checkout,
# refund claim, payment link, the language switcher, any catalogue added later) and what Intl
# writes in zh-CN dates. Rerun it after changing any Chinese text; tests/unit/i18n-messages.test.ts
# fails while glyphs.txt or the fonts lag behind the sources.
#
# Needs, on Debian/Ubuntu (PyPI may be unreachable; the packages are enough):
#   apt-get install -y fonttools python3-brotli          # pyftsubset, with WOFF2 (Brotli) output
#   cd /tmp && apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb /tmp/cjk
# or point NOTO_CJK_DIR at a folder holding NotoSansCJK-Regular.ttc and NotoSansCJK-Bold.ttc.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
SRC=${NOTO_CJK_DIR:-/tmp/cjk/usr/share/fonts/opentype/noto}
for file in NotoSansCJK-Regular.ttc NotoSansCJK-Bold.ttc; do
  [ -f "$SRC/$file" ] || { echo "missing $SRC/$file (see the comment at the top of $0)" >&2; exit 1; }
done
npx --no-install tsx lib/web/i18n/cjk-font/glyphs.ts > lib/web/i18n/cjk-font/glyphs.txt
# Font 2 of the collection is Simplified Chinese (SC). --layout-features keeps the vertical and
# full-width forms; no hinting (browsers do not use it for CFF) keeps it ~45 KB a weight.
for weight in 400:Regular 700:Bold; do
  pyftsubset "$SRC/NotoSansCJK-${weight#*:}.ttc" --font-number=2 --text-file=lib/web/i18n/cjk-font/glyphs.txt \
    --flavor=woff2 --layout-features='*' --no-hinting --desubroutinize --name-IDs='*' --output-file="public/fonts/bsc-pay-sc-${weight%%:*}.woff2"
done
echo "$(wc -m < lib/web/i18n/cjk-font/glyphs.txt) characters"
ls -l public/fonts/
