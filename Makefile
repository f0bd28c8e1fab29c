# Two entry points that work on a fresh machine with only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# The rules core that setup.py compiles with mypyc (pdn/compiled.py): an edited one rebuilds.
COMPILED_SOURCES = $(shell sed -n 's,^    "\(\(pdn\|replay\)\.[a-z_.]*\)".*,\1,p' pdn/compiled.py | tr . / | sed 's,$$,.py,')
PURE_VENV := .venv-pure

.PHONY: demo test test-quick test-deps test-pure lint bench docs clean valgrind-native

# An editable install: compiled with mypyc where mypy and a C compiler are at hand (the
# extensions land beside their sources), else pure Python; PDN_PURE_PYTHON=1 asks for pure.
$(BIN)/pdn: pyproject.toml setup.py $(COMPILED_SOURCES) replay/rules/_native.c replay/engine/_search.c \
		replay/database/_positions.c pdn/_scan.c
	@echo "Installing the toolkit into $(VENV): one to three minutes, pip quiet meanwhile (it"
	@echo "downloads the dependencies, then compiles the rules core with mypyc and C where a"
	@echo "C compiler is found)."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,parquet,plots,png,serve]'
	touch $(BIN)/pdn
	@echo "Installed: $(BIN)/pdn"

demo: $(BIN)/pdn  ## the main job on the bundled samples
	@# validate exits 1 here: one sample scoresheet has an illegal move on purpose
	$(BIN)/pdn validate samples --warnings; test $$? -le 1
	$(BIN)/pdn convert samples/russian/ivanov_petrov_short.pdn --to full --format text

test: $(BIN)/pdn  ## the whole test suite, 15-25 min (a missing browser, peer or dask skips; fails under CI=true)
	@echo "The whole suite: 15-25 minutes on a laptop (make test-quick: about 2 minutes)."
	$(BIN)/python -m pytest -n auto

# A newcomer's first check: the reader, the writer, the library and the command line's
# surface, in a few minutes (835 tests); make test runs everything.
QUICK_TESTS = tests/notation tests/test_api.py tests/cli/test_cli_surface.py tests/test_layers.py
test-quick: $(BIN)/pdn  ## a quick subset (about 2 min): reader, writer, library, command line
	$(BIN)/python -m pytest $(QUICK_TESTS)

test-deps: $(BIN)/pdn  ## what the tests of real components need, but Chromium (.ci/run: apt-get)
	$(BIN)/python -m pip install --quiet -e '.[dev,parquet,plots,png,dask,docs,serve]' dame-rs
	$(BIN)/python bench/peers.py --install

# The pure-Python build: its own venv, installed without compiling, and PDN_PURE_PYTHON=1 at
# run time so that the extensions beside the sources are not imported. What the two builds run
# differently is the rules core, so this runs the tests of the core, the reader and writer,
# the library and the main jobs (validate, convert), and the doctests of pdn/ and replay/
# (those of the compiled modules run only here); the other tools are the same Python on both.
PURE_TESTS = tests/rules tests/notation tests/test_api.py tests/test_build.py \
	tests/tools/validate tests/tools/convert pdn replay
$(PURE_VENV)/bin/pdn: pyproject.toml setup.py
	$(PYTHON) -m venv $(PURE_VENV)
	$(PURE_VENV)/bin/python -m pip install --quiet --upgrade pip
	PDN_PURE_PYTHON=1 $(PURE_VENV)/bin/python -m pip install --quiet -e '.[dev,parquet,plots,png,dask,serve]' dame-rs
	touch $(PURE_VENV)/bin/pdn

test-pure: $(PURE_VENV)/bin/pdn  ## the rules core's tests and the main jobs' on the pure-Python build
	PDN_PURE_PYTHON=1 $(PURE_VENV)/bin/python -m pytest -n auto $(PURE_TESTS)

# The native parts' and the reader's native scanner's differential and fuzz tests under
# valgrind's memcheck: any invalid read or write, or a use of uninitialised memory, in
# replay/rules/_native.c, replay/engine/_search.c, replay/database/_positions.c or pdn/_scan.c
# fails (the interpreter's own known reports are suppressed: tests/support/valgrind.supp).
# About half an hour.
VALGRIND = PYTHONMALLOC=malloc valgrind --error-exitcode=1 --quiet \
	--suppressions=tests/support/valgrind.supp $(BIN)/python -m pytest -x -q -p no:cacheprovider
valgrind-native: $(BIN)/pdn  ## the native parts' and scanner's tests under valgrind
	$(VALGRIND) tests/rules/test_native.py -k "not every_game and not rows"
	$(VALGRIND) tests/tools/engine/test_builtin.py tests/tools/database/test_rows.py
	$(VALGRIND) tests/tools/convert/test_convert_plain.py -k "native_writer or mark"
	$(VALGRIND) tests/tools/stats/test_stats_fast_path.py -k "native_count or native_rows"
	PDN_SCAN_EXAMPLES=40 $(VALGRIND) tests/notation/test_scan.py \
		-k "not every_real_file and not archive and not runs"

# The docs are read from the source tree (mkdocstrings reads the sources, not the build), so
# an installed venv is used as it is: an edited rules core is not recompiled for them.
docs:  ## the documentation site (MkDocs) in site/, warnings and broken links or anchors as errors
	test -x $(BIN)/pdn || $(MAKE) $(BIN)/pdn
	test -x $(BIN)/mkdocs || $(BIN)/python -m pip install --quiet $$($(BIN)/python -c \
		"import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['docs'])")
	$(BIN)/mkdocs build --strict
	@echo "open site/index.html"

lint: $(BIN)/pdn
	$(BIN)/ruff check .

bench: $(BIN)/pdn
	$(BIN)/python bench/perft.py
	$(BIN)/python bench/read.py
	$(BIN)/python bench/validate.py
	$(BIN)/python bench/stats.py
	$(BIN)/python bench/archive.py
	$(BIN)/python bench/repair.py
	$(BIN)/python bench/linear.py
	$(BIN)/python bench/index.py
	$(BIN)/python bench/tree.py
	$(BIN)/python bench/scale.py --games 200000

clean:
	rm -rf $(VENV) $(PURE_VENV) build *.egg-info .pytest_cache pdn/_compiled.json
	rm -f *__mypyc.*.so pdn/*.so replay/*.so

# The players' languages (docs/languages.md): the messages marked for translation (N_, _,
# ngettext) extracted into pdn/locale/pdn.pot, and each catalog brought up to date with it.
# GNU gettext's xgettext and msgmerge do it; without them Python's pygettext makes the
# template. The catalogs (.po) are read as they are at run time: nothing is compiled.
LOCALES = $(wildcard pdn/locale/*/LC_MESSAGES/pdn.po)
I18N_SOURCES = $(shell grep -rlwE --include='*.py' 'N_|ngettext' pdn replay cli | sort)
.PHONY: messages catalogs
messages:  ## extract the messages marked for translation into pdn/locale/pdn.pot
	if command -v xgettext >/dev/null; then \
		xgettext --language=Python --from-code=UTF-8 --keyword=N_ --keyword=ngettext:1,2 \
			--add-comments=TRANSLATORS --sort-by-file --package-name=pdn-toolkit \
			--output=pdn/locale/pdn.pot $(I18N_SOURCES); \
	else \
		pygettext3 --keyword=N_ --output=pdn/locale/pdn.pot $(I18N_SOURCES); \
	fi

catalogs: messages  ## bring every catalog (pdn/locale/LANG/LC_MESSAGES/pdn.po) up to date
	for po in $(LOCALES); do msgmerge --quiet --update --backup=none $$po pdn/locale/pdn.pot \
		&& msgfmt --check --output-file=/dev/null $$po || exit 1; done
