#!/bin/sh
# Starts the server from this folder; flags are passed on (e.g. --listen 0.0.0.0:8080 --db data/app.db).
cd "$(dirname "$0")" && exec node server.js "$@"
