#!/bin/sh
# package-test.sh PACKAGE.tar.xz [SHOT.png]: installs the Linux desktop package that
# `make package` built into a temporary prefix (the package's own Makefile, `make install`),
# checks what it installed (binary, .desktop entry, icon), runs the installed binary's
# --version, then starts the installed app under Xvfb on a fresh library and takes a
# screenshot of the screen (default: the temporary folder). Exit 0 when all holds.
set -eu
pkg=$(realpath "$1")
tmp=$(mktemp -d)
shot=${2:-$tmp/installed.png}
display=${PACKAGE_TEST_DISPLAY:-:97}
app=""
xvfb=""
cleanup() {
	[ -n "$app" ] && kill "$app" 2>/dev/null || true
	[ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

tar -xJf "$pkg" -C "$tmp"
prefix=$tmp/prefix
make -s -C "$tmp/benchlens" install PREFIX="$prefix"
for f in bin/benchlens share/applications/io.benchlens.app.desktop share/pixmaps/io.benchlens.app.png; do
	[ -s "$prefix/$f" ] || { echo "package-test: $f not installed" >&2; exit 1; }
done
desktop=$prefix/share/applications/io.benchlens.app.desktop
for key in 'Type=Application' 'Name=benchlens' 'Exec=benchlens' 'Icon=io.benchlens.app' 'Categories='; do
	grep -q "^$key" "$desktop" || { echo "package-test: $desktop lacks $key" >&2; exit 1; }
done
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$desktop"; fi
"$prefix/bin/benchlens" --version | sed 's/^/installed: /'

# Start the installed app on its own display and a library in the temporary folder.
if ! xdpyinfo -display "$display" >/dev/null 2>&1 && ! xwininfo -display "$display" -root >/dev/null 2>&1; then
	Xvfb "$display" -screen 0 1600x1000x24 >/dev/null 2>&1 &
	xvfb=$!
	sleep 2
fi
HOME=$tmp/home DISPLAY=$display "$prefix/bin/benchlens" --db "$tmp/lib.db" >"$tmp/app.log" 2>&1 &
app=$!
i=0
until xwininfo -display "$display" -root -tree 2>/dev/null | grep -q '"benchlens"'; do
	i=$((i + 1))
	if [ $i -gt 60 ] || ! kill -0 "$app" 2>/dev/null; then
		echo "package-test: the installed app opened no window" >&2
		cat "$tmp/app.log" >&2
		exit 1
	fi
	sleep 0.5
done
sleep 3 # let it draw
import -display "$display" -window root "$shot"
kill -0 "$app" || { echo "package-test: the app exited" >&2; cat "$tmp/app.log" >&2; exit 1; }
echo "package-test: installed into $prefix, window up, screenshot $shot"
