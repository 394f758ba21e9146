"""Tools the model can call: shell, apply_patch, update_plan; the router that dispatches them."""
