# Local stand-in for the official prom/prometheus image: Debian's Prometheus (and wget, which the compose
# health check runs, as the official image's busybox has it). As the official image: `prometheus` is the
# entrypoint, run as `nobody` in /prometheus (the data volume), with its default flags as the command. The
# package's own service is not started while it installs (policy-rc.d).
ARG DEBIAN_IMAGE=strm-local/debian:trixie
FROM ${DEBIAN_IMAGE}
RUN printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d \
  && apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus wget \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /usr/sbin/policy-rc.d \
  && mkdir -p /prometheus && chown nobody:nogroup /prometheus
USER nobody
WORKDIR /prometheus
VOLUME /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
