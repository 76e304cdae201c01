# Local stand-in for the official redis image: Debian's Redis 8 (server and redis-cli), run as the user
# `redis` in /data (the volume), protected mode off when no config file is given, as the official entrypoint.
ARG DEBIAN_IMAGE=strm-local/debian:trixie
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server redis-tools \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
  && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /data
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
