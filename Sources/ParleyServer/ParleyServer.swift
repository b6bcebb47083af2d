// ParleyServer: see DESIGN.md "Targets".
