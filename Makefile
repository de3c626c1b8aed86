# Two commands on a fresh machine: `make run` (demo event) and `make test`.
# At the venue: `make serve` (gunicorn on the LAN, production settings, QR code of the address).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Empty: 127.0.0.1 for `make run`, 0.0.0.0 (every interface, the venue's LAN) for `make serve`.
HOST ?=
PORT ?= 8000
# Server processes for `make serve` (default 2 × cores + 1) and threads in each.
WORKERS ?=
THREADS ?= 4
export KARUTA_DATA_DIR ?= $(CURDIR)/var

.PHONY: run serve test lint format setup system-deps messages clean backup

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

setup: $(VENV)/.installed
	$(BIN)/python manage.py compilemessages -v0 --ignore=.venv 2>/dev/null || true
	$(BIN)/python manage.py migrate -v0

# Japanese PDF font, PDF/QR tools (optional: the app falls back to a CID font without them);
# Open JTalk for the reader's synthetic voice (optional too).
system-deps:
	@if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && ! fc-list 2>/dev/null | grep -qi ipaexmincho; then \
		apt-get update -qq && apt-get install -y -qq fonts-ipaexfont-gothic fonts-ipaexfont-mincho poppler-utils zbar-tools >/dev/null; fi
	@# The surface crawl: qpdf for its PDF checks (optional: the crawl is skipped without it).
	@if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && ! command -v qpdf >/dev/null; then \
		apt-get install -y -qq qpdf >/dev/null || echo "apt-get could not install qpdf" >&2; fi
	@# IPAmj Mincho: the rare kanji of people's names (𠮷 …) on every PDF (optional: else they print as 〓).
	@if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && ! fc-list 2>/dev/null | grep -qi ipamjmincho; then \
		apt-get install -y -qq fonts-ipamj-mincho >/dev/null \
		|| echo "apt-get could not install fonts-ipamj-mincho: rare kanji of names print as 〓" >&2; fi
	@# The reader's offline synthetic voice (optional: recordings play without it).
	@if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && ! command -v open_jtalk >/dev/null; then \
		apt-get update -qq && apt-get install -y -qq open-jtalk open-jtalk-mecab-naist-jdic >/dev/null \
		|| echo "apt-get could not install open-jtalk: the reader reads recordings only" >&2; fi

# The same code as the package's `karuta run` (ops/cli.py): the demo once, the organiser login,
# the PDF font, the address; the development server restarts when the code changes.
run: system-deps setup
	$(BIN)/python -m ops.cli run --host $(or $(HOST),127.0.0.1) --port $(PORT) --reload

# Production server for the venue: DEBUG off, static files collected (served by whitenoise),
# the deployment checks clean, gunicorn with several workers on 0.0.0.0:$(PORT); prints the
# LAN address and its QR code and sets SITE_URL to it (unless SITE_URL is set).
serve: export DEBUG = false
serve: system-deps setup
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/python manage.py check --deploy --fail-level WARNING
	$(BIN)/python manage.py serve --host $(or $(HOST),0.0.0.0) --port $(PORT) --threads $(THREADS) $(if $(WORKERS),--workers $(WORKERS))

# A backup of the whole database now (DATA_DIR/backups); `manage.py restore FILE --yes` restores.
backup: setup
	$(BIN)/python manage.py backup

# Lint and format check (ruff, configured in pyproject.toml; ESLint over the page scripts,
# eslint.config.js, pinned in package-lock.json); CI runs it before the tests. Without npm the
# JavaScript is not linted (said so), except under CI=true, where that fails.
lint: $(VENV)/.installed node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@if [ -x node_modules/.bin/eslint ]; then echo "eslint static/js */static tests/js"; node_modules/.bin/eslint static/js */static tests/js eslint.config.js; \
	elif [ "$$CI" = true ]; then echo "eslint is missing (npm ci failed): make lint fails under CI" >&2; exit 1; \
	else echo "eslint is missing (no npm, or npm ci failed): the JavaScript is not linted" >&2; fi

# Apply ruff's formatting and its safe fixes.
format: $(VENV)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The surface crawl's checkers (axe-core, the Nu HTML Checker) and ESLint, pinned in
# package-lock.json; without npm the crawl is skipped and the JavaScript not linted (outside CI).
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --ignore-scripts --no-audit --no-fund --silent && touch $@ \
		|| echo "npm ci failed: the surface crawl (tests/surface) is skipped and ESLint missing (required under CI=true)" >&2; \
	else echo "npm is missing: the surface crawl (tests/surface) is skipped" >&2; fi

# The suite on every core (pytest-xdist; each file's tests stay in one process, so the crawl
# runs once); TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto
test: system-deps $(VENV)/.installed node_modules/.installed
	$(BIN)/python manage.py compilemessages -v0 --ignore=.venv 2>/dev/null || true
	$(BIN)/python manage.py makemigrations --check --dry-run -v0
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

clean:
	rm -rf $(VENV) var staticfiles
