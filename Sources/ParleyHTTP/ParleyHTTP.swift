// ParleyHTTP: see DESIGN.md "Targets".
