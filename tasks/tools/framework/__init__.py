"""The environment framework: toolkits with derived JSON Schemas, databases, environments."""
