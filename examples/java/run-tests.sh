#!/usr/bin/env bash
# The team's suite run here as Maven would run it (pom.xml), with the JDK alone and Debian's jars (no Maven
# Central here): the client's jar (DIPSWITCH_JAVA_CLIENT, else built from clients/java), Jackson, JUnit 5's
# console launcher. The server and the gate come from the DIPSWITCH_* settings (docs/clients.md).
set -euo pipefail
cd "$(dirname "$0")"
libs=${DIPSWITCH_JAVA_LIBS:-/usr/share/java}
client=${DIPSWITCH_JAVA_CLIENT:-$(../../clients/java/build.sh jar | tail -n 1 | sed "s:^:$(cd ../../clients/java && pwd)/:")}
cp="$client:$libs/jackson-databind.jar:$libs/jackson-core.jar:$libs/jackson-annotations.jar"
junit="$libs/junit-platform-console-standalone.jar"
rm -rf build && mkdir -p build
find src/main -name '*.java' > build/main.sources
find src/test -name '*.java' > build/test.sources
javac -d build/classes -cp "$cp" -encoding UTF-8 --release 17 @build/main.sources
javac -d build/test-classes -cp "build/classes:$cp:$junit" -encoding UTF-8 --release 17 @build/test.sources
cp -r src/test/resources/. build/test-classes/
exec java -cp "build/test-classes:build/classes:$cp:$junit" org.junit.platform.console.ConsoleLauncher \
  --disable-banner --details=tree --disable-ansi-colors --scan-classpath build/test-classes --reports-dir build/reports
