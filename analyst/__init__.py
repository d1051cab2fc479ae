"""The analyst loop: model clients, governed tools with handles, traces."""
