"""The panels of the workspace: patients, chat, sources, profile and trace."""
