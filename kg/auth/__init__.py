"""Who may do what through the API: API keys with their roles, stored as hashes (apikeys), and where the API
listens deciding what a caller without a key may do (access). The API, the CLI's key and serve commands and the
benchmarks' servers use them; they import only kg.errors and kg.settings."""
