"""The task kinds, one module per family; each registers its kinds on import."""
