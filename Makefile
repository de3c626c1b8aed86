# Two commands on a fresh machine: `make run` (demo event) and `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export KARUTA_DATA_DIR ?= $(CURDIR)/var

.PHONY: run test setup system-deps messages clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

setup: $(VENV)/.installed
	$(BIN)/python manage.py compilemessages -v0 --ignore=.venv 2>/dev/null || true
	$(BIN)/python manage.py migrate -v0

# Japanese PDF font, PDF/QR tools (optional: the app falls back to a CID font without them).
system-deps:
	@if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && ! fc-list 2>/dev/null | grep -qi ipaex; then \
		apt-get update -qq && apt-get install -y -qq fonts-ipaexfont-gothic poppler-utils zbar-tools >/dev/null; fi

run: system-deps setup
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py ensure_organiser
	@echo "Open http://$(HOST):$(PORT)/ (organiser pages: http://$(HOST):$(PORT)/manage/)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: system-deps $(VENV)/.installed
	$(BIN)/python manage.py compilemessages -v0 --ignore=.venv 2>/dev/null || true
	$(BIN)/python manage.py makemigrations --check --dry-run -v0
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) var staticfiles
