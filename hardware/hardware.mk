# Reference hardware (hardware/README.md). Included by the top-level Makefile.
#
# make hardware         ERC (any warning or error fails), netlist + BOM into hardware/build/,
#                       pin map vs netlist pin for pin, and the committed outputs fresh:
#                       hardware/bom.csv, hardware/field_table.json, hardware/wiring.svg;
#                       the printed parts' STLs into hardware/build/parts/ (hardware/parts.py);
#                       the README's power budget table as power_budget.py computes it.
# make hardware-update  regenerate those committed outputs after changing pinmap.json,
#                       geometry.json or the scripts (then commit them).

HW := hardware
HW_BUILD := $(HW)/build

.PHONY: hardware hardware-update

hardware: $(BIN)/.installed
	@$(BIN)/python $(HW)/circuit.py --out $(HW_BUILD) --bom-check $(HW)/bom.csv
	@$(BIN)/python $(HW)/field_model.py --check
	@$(BIN)/python $(HW)/wiring.py --check
	@$(BIN)/python $(HW)/parts.py --out $(HW_BUILD)/parts
	@$(BIN)/python $(HW)/power_budget.py --check

hardware-update: $(BIN)/.installed
	$(BIN)/python $(HW)/circuit.py --out $(HW_BUILD)
	cp $(HW_BUILD)/bom.csv $(HW)/bom.csv
	$(BIN)/python $(HW)/field_model.py
	$(BIN)/python $(HW)/wiring.py
	$(BIN)/python $(HW)/power_budget.py --update
