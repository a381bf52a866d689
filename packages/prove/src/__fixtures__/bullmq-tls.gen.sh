#!/bin/sh
# Writes the self-signed certificate and key the bullmq tests' TLS redis-server uses (test-only, for
# 127.0.0.1; never use them for anything else). Run from this folder: sh bullmq-tls.gen.sh
set -eu
openssl req -x509 -newkey rsa:2048 -nodes -keyout bullmq-tls.key -out bullmq-tls.crt -days 36500 \
  -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1"
