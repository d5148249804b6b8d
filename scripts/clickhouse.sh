#!/usr/bin/env bash
# Starts or stops a throwaway ClickHouse server on 127.0.0.1 with its data under a temp folder.
#   scripts/clickhouse.sh start DIR [HTTP_PORT] [TCP_PORT]   prints the server's URL once it answers SELECT 1
#   scripts/clickhouse.sh stop DIR                            stops the server started in DIR, by its PID
# Extra configuration (a cluster definition, say) goes in DIR/config.d/*.xml before `start`.
set -euo pipefail

command=${1:?usage: clickhouse.sh start|stop DIR [HTTP_PORT] [TCP_PORT]}
dir=${2:?usage: clickhouse.sh start|stop DIR [HTTP_PORT] [TCP_PORT]}

case "$command" in
start)
    http_port=${3:-8123}
    tcp_port=${4:-9000}
    mkdir -p "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/format_schemas" "$dir/log" "$dir/config.d"
    dir=$(cd "$dir" && pwd)
    # The default profile logs every query to system.query_log, for seeing where time goes.
    sed '0,/<default>/s//<default><log_queries>1<\/log_queries>/' /etc/clickhouse-server/users.xml > "$dir/users.xml"
    cat > "$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <logger>
        <level>warning</level>
        <log>$dir/log/server.log</log>
        <errorlog>$dir/log/server.err.log</errorlog>
        <size>100M</size>
        <count>1</count>
    </logger>
    <http_port>$http_port</http_port>
    <tcp_port>$tcp_port</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <max_connections>256</max_connections>
    <keep_alive_timeout>10</keep_alive_timeout>
    <max_concurrent_queries>64</max_concurrent_queries>
    <mark_cache_size>536870912</mark_cache_size>
    <path>$dir/data/</path>
    <tmp_path>$dir/tmp/</tmp_path>
    <user_files_path>$dir/user_files/</user_files_path>
    <format_schema_path>$dir/format_schemas/</format_schema_path>
    <users_config>$dir/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
</yandex>
XML
    clickhouse-server --config-file="$dir/config.xml" --pid-file="$dir/server.pid" --daemon
    for _ in $(seq 1 120); do
        if curl -sf "http://127.0.0.1:$http_port/?query=SELECT%201" >/dev/null 2>&1; then
            echo "http://127.0.0.1:$http_port"
            exit 0
        fi
        sleep 0.5
    done
    echo "clickhouse-server did not answer on 127.0.0.1:$http_port; see $dir/log/server.err.log" >&2
    exit 1
    ;;
stop)
    if [ -f "$dir/server.pid" ]; then
        pid=$(cat "$dir/server.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 60); do
            kill -0 "$pid" 2>/dev/null || exit 0
            sleep 0.5
        done
        kill -9 "$pid" 2>/dev/null || true
    fi
    ;;
*)
    echo "usage: clickhouse.sh start|stop DIR [HTTP_PORT] [TCP_PORT]" >&2
    exit 64
    ;;
esac
