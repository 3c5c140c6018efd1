# The two commands of the README. Both install what they need first.
PYTHON ?= python3

.PHONY: install demo test

install:
	$(PYTHON) -m pip install -q -e '.[dev]'

demo: install
	avd demo

# the model evaluations are tested too, with tiny models built from configs (CPU torch)
test:
	$(PYTHON) -m pip install -q -e '.[dev,ml]'
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)
	$(PYTHON) -m pytest -q
