# Reference hardware (hardware/README.md). Included by the top-level Makefile.
#
# make hardware         ERC (any warning or error fails), netlist + BOM into hardware/build/,
#                       pin map vs netlist pin for pin, each board's netlist (boards.py); the
#                       boards laid out, routed and checked (pcb.py: DRC, copper vs netlist,
#                       sensor positions) with their fab files in hardware/build/fab/; the
#                       printed parts' STLs into hardware/build/parts/ (parts.py); the README's
#                       power budget table as power_budget.py computes it; and the committed
#                       outputs fresh: hardware/bom.csv, field_table.json, wiring.svg, renders/.
# make hardware-update  regenerate those committed outputs after changing pinmap.json,
#                       geometry.json or the scripts (then commit them).

HW := hardware
HW_BUILD := $(HW)/build
# KiCad's pcbnew module exists only for Debian's /usr/bin/python3: a second venv made from it
# (with its system site packages) runs the board scripts; pcb.py needs nothing beyond pcbnew.
KICAD_VENV := .venv-kicad
KICAD_BIN := $(KICAD_VENV)/bin

.PHONY: hardware hardware-update kicad-deps

# KiCad 6 (pcbnew, footprints, symbols) and python3-venv from Debian, installed only when missing.
kicad-deps:
	@missing=""; \
	[ -e /usr/lib/python3/dist-packages/pcbnew.py ] || missing="$$missing kicad"; \
	[ -d /usr/share/kicad/footprints ] || missing="$$missing kicad-footprints kicad-symbols"; \
	/usr/bin/python3 -c "import ensurepip" 2>/dev/null || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing (Debian)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

$(KICAD_BIN)/.installed: constraints.txt | kicad-deps
	/usr/bin/python3 -m venv --system-site-packages $(KICAD_VENV)
	$(KICAD_BIN)/python -c "import pcbnew"
	$(KICAD_BIN)/pip install -q -c constraints.txt pillow  # the board previews (fab.py)
	touch $@

hardware: $(BIN)/.installed $(KICAD_BIN)/.installed
	@$(BIN)/python $(HW)/circuit.py --out $(HW_BUILD) --bom-check $(HW)/bom.csv
	@$(KICAD_BIN)/python $(HW)/pcb.py --boards $(HW_BUILD)/boards --out $(HW_BUILD) --renders $(HW)/renders
	@$(BIN)/python $(HW)/field_model.py --check
	@$(BIN)/python $(HW)/wiring.py --check
	@$(BIN)/python $(HW)/parts.py --out $(HW_BUILD)/parts
	@$(BIN)/python $(HW)/power_budget.py --check

hardware-update: $(BIN)/.installed $(KICAD_BIN)/.installed
	$(BIN)/python $(HW)/circuit.py --out $(HW_BUILD)
	cp $(HW_BUILD)/bom.csv $(HW)/bom.csv
	$(KICAD_BIN)/python $(HW)/pcb.py --boards $(HW_BUILD)/boards --out $(HW_BUILD) --update-renders $(HW)/renders
	$(BIN)/python $(HW)/field_model.py
	$(BIN)/python $(HW)/wiring.py
	$(BIN)/python $(HW)/power_budget.py --update
