# Local stand-in for node:20-bookworm-slim (no image registry reachable here): Debian's Node.js 20 and npm on
# the Debian base that scripts/compose/test.sh makes with debootstrap. As the official image: a user `node`
# (uid 1000), `npm install --global` into /usr/local. libssl3 for a local chain binary linked to the system's
# OpenSSL. The build context's host-ca-certificates.crt (this machine's CA bundle, which test.sh copies in)
# is trusted as well: where HTTPS goes through an inspecting proxy, npm and pnpm in the image reach the
# registry as the machine does.
ARG DEBIAN_IMAGE=strm-local/debian:trixie
FROM ${DEBIAN_IMAGE}
COPY host-ca-certificates.crt /usr/local/share/ca-certificates/host-ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm libssl3t64 ca-certificates \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
  && update-ca-certificates >/dev/null \
  && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
CMD ["node"]
