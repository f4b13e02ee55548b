#!/usr/bin/env bash
# Builds the Java client with the JDK alone and Debian's jars (junit5, libjackson2-databind-java; no Maven
# Central here): `build.sh jar` makes build/dipswitch-VERSION.jar, `build.sh test` runs the client's own tests
# with JUnit's console launcher (their server from the DIPSWITCH_* settings, docs/clients.md), `build.sh classes`
# compiles the client and its tests alone.
# DIPSWITCH_JAVA_LIBS names another folder of those jars.
set -euo pipefail
cd "$(dirname "$0")"
libs=${DIPSWITCH_JAVA_LIBS:-/usr/share/java}
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -n 1)
json="$libs/jackson-databind.jar:$libs/jackson-core.jar:$libs/jackson-annotations.jar"
junit="$libs/junit-platform-console-standalone.jar"
for jar in ${json//:/ } "$junit"; do
  [ -f "$jar" ] || { echo "build.sh: no $jar (apt-get install junit5 libjackson2-databind-java)" >&2; exit 2; }
done

compile() { # OUT CLASSPATH SOURCES…
  local out=$1 cp=$2
  shift 2
  rm -rf "$out" && mkdir -p "$out"
  find "$@" -name '*.java' > "$out.sources"
  javac -d "$out" -cp "$cp" -encoding UTF-8 --release 17 -Xlint:all,-serial -Werror @"$out.sources"
}

case "${1:-}" in
  jar)
    compile build/classes "$json:$junit" src/main/java
    mkdir -p build/classes/META-INF
    cp LICENSE build/classes/META-INF/LICENSE
    jar --create --file "build/dipswitch-$version.jar" -C build/classes .
    echo "build/dipswitch-$version.jar"
    ;;
  classes | test)
    compile build/classes "$json:$junit" src/main/java
    compile build/test-classes "build/classes:$json:$junit" src/test/java
    cp -r src/test/resources/. build/test-classes/
    [ "$1" = test ] || exit 0
    java -Ddipswitch.clients="$(cd .. && pwd)" -cp "build/test-classes:build/classes:$json:$junit" \
      org.junit.platform.console.ConsoleLauncher --disable-banner --details=summary --disable-ansi-colors \
      --scan-classpath build/test-classes --reports-dir build/reports
    ;;
  *)
    echo "usage: build.sh jar|classes|test" >&2
    exit 2
    ;;
esac
