"""Training scripts for granujas bots (MaskablePPO single-seat wrapper, self-play pools)."""
