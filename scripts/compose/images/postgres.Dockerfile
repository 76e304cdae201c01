# Local stand-in for the official postgres image: Debian's PostgreSQL 17, with an entrypoint that honours the
# same environment (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA under the /var/lib/postgresql
# volume) and the same `pg_isready` health check.
ARG DEBIAN_IMAGE=strm-local/debian:trixie
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-17 \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
  && (pg_dropcluster 17 main || true) \
  && mkdir -p /var/run/postgresql /var/lib/postgresql && chown postgres:postgres /var/run/postgresql /var/lib/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/17/bin:$PATH PGDATA=/var/lib/postgresql/17/docker
VOLUME /var/lib/postgresql
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
