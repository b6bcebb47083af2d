// ParleyDSL: see DESIGN.md "Targets".
