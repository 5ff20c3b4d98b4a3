"""envpool."""
