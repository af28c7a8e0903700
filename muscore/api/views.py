"""JSON endpoints over muscore.rules (the contract in spec/hand-record.md)."""
