"""Modal and modeless dialogs: settings, knowledge base, fact editing, about."""
