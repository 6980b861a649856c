"""Battle rules: pure functions over the immutable battle state."""
