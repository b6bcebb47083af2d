// ParleyCrypto: see DESIGN.md "Targets".
