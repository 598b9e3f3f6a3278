"""Built-in domains written by the project: retail, airline and telecom."""
