"""Version string of the Bang! The Dice Game rules, observations and records (bumped on any change)."""

ENV_VERSION = "bang_dice_v0"
