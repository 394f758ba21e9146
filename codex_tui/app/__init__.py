"""The interactive Textual app over the core: screens, widgets and the event pump."""
