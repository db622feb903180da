"""Django's PostgreSQL backend with every wait of a request bounded on the client side."""
