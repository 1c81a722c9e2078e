# Sourced by ./test, ./threadline and the CI scripts: finds a JDK 21+ and exports JAVA_HOME
# (threadline_find_jdk), and keeps Maven quiet on it (threadline_maven_env).
# Order: $JAVA_HOME, then /usr/lib/jvm/*, /opt/java/*, ~/.sdkman/candidates/java/*, then java on PATH.

threadline_java_major() { # $1 = a java executable; prints its feature version (17, 21, 25, ...)
  "$1" -XshowSettings:properties -version 2>&1 \
    | awk -F'= ' '/java.specification.version/ { print $2; exit }' | cut -d. -f1
}

threadline_find_jdk() {
  local candidates=() c major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for c in /usr/lib/jvm/* /opt/java/* /usr/local/lib/jvm/* "$HOME"/.sdkman/candidates/java/*; do
    [ -d "$c" ] && candidates+=("$c")
  done
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    major=$(threadline_java_major "$c/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null; then
      export JAVA_HOME="$c"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  cat >&2 <<'MSG'
threadline: no JDK 21 or newer was found.
  Looked at $JAVA_HOME, /usr/lib/jvm/*, /opt/java/*, ~/.sdkman/candidates/java/* and javac on PATH.
  Install one (for example: apt-get install openjdk-21-jdk-headless, or a Temurin 21/25 build)
  or point JAVA_HOME at it, then run this command again.
MSG
  return 1
}

threadline_maven_env() { # after threadline_find_jdk: Maven runs on $JAVA_HOME; keeps a healthy build quiet
  local opts=" -Djansi.noreset=true" # Maven's jansi writes an ANSI reset to the console at exit, even with -B -q
  if [ "$(threadline_java_major "$JAVA_HOME/bin/java")" -ge 24 ]; then
    opts="$opts --sun-misc-unsafe-memory-access=allow" # Maven's own Guava calls sun.misc.Unsafe, which JDK 24+ warns about
  fi
  case " ${MAVEN_OPTS:-} " in
    *" -Djansi.noreset=true "*) ;;
    *) export MAVEN_OPTS="${MAVEN_OPTS:-}$opts" ;;
  esac
}
