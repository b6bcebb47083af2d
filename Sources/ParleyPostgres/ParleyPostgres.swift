// ParleyPostgres: see DESIGN.md "Targets".
