# Local stand-in for the official haproxy image: Debian's HAProxy, run as `haproxy` with the official image's
# configuration path.
ARG DEBIAN_IMAGE=strm-local/debian:trixie
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends haproxy \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
  && mkdir -p /usr/local/etc/haproxy /var/lib/haproxy
USER haproxy
STOPSIGNAL SIGUSR1
CMD ["haproxy", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
