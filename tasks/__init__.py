"""Task families of frontier-evals, one subpackage each (registered under ``frontier.tasks``)."""
