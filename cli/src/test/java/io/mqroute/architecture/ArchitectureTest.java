package io.mqroute.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaParameterizedType;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house rules of docs/architecture.md §2, checked on the compiled main code of every module
 * (this module's test class path holds them all; bench is not a dependency of anything and is left
 * out).
 */
class ArchitectureTest {
  static JavaClasses main;

  @BeforeAll
  static void importMainCode() {
    main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.mqroute");
  }

  /** The module arrows of docs/architecture.md §2: each module names what it may use. */
  static ArchRule moduleArrows() {
    return layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("protocol")
        .definedBy("io.mqroute.protocol..")
        .layer("policies")
        .definedBy("io.mqroute.policies..")
        .layer("config")
        .definedBy("io.mqroute.config..")
        .layer("runtime")
        .definedBy("io.mqroute.runtime..")
        .layer("metrics")
        .definedBy("io.mqroute.metrics..")
        .layer("actors")
        .definedBy("io.mqroute.actors..")
        .layer("workload")
        .definedBy("io.mqroute.workload..")
        .layer("experiment")
        .definedBy("io.mqroute.experiment..")
        .layer("chaos")
        .definedBy("io.mqroute.chaos..")
        .layer("cluster")
        .definedBy("io.mqroute.cluster..")
        .layer("nbd")
        .definedBy("io.mqroute.nbd..")
        .layer("cli")
        .definedBy("io.mqroute.cli..")
        .whereLayer("protocol")
        .mayNotAccessAnyLayer()
        .whereLayer("policies")
        .mayNotAccessAnyLayer()
        .whereLayer("config")
        .mayOnlyAccessLayers("policies")
        .whereLayer("runtime")
        .mayNotAccessAnyLayer()
        .whereLayer("metrics")
        .mayNotAccessAnyLayer()
        .whereLayer("actors")
        .mayOnlyAccessLayers("protocol", "policies", "config", "runtime", "metrics")
        .whereLayer("workload")
        .mayOnlyAccessLayers("actors", "policies", "config", "runtime", "metrics")
        .whereLayer("experiment")
        .mayOnlyAccessLayers("workload", "actors", "policies", "config", "runtime", "metrics")
        .whereLayer("chaos")
        .mayOnlyAccessLayers("workload", "actors", "policies", "config", "runtime", "metrics")
        .whereLayer("cluster")
        .mayOnlyAccessLayers(
            "workload", "actors", "protocol", "policies", "config", "runtime", "metrics")
        .whereLayer("nbd")
        .mayOnlyAccessLayers("protocol", "config", "metrics")
        .whereLayer("cli")
        .mayNotBeAccessedByAnyLayer();
  }

  @Test
  void modulesUseOnlyTheModulesBelowThem() {
    moduleArrows().check(main);
  }

  @Test
  void noPackageCycles() {
    slices().matching("io.mqroute.(**)").should().beFreeOfCycles().check(main);
  }

  @Test
  void policiesAreFreeOfPekko() {
    noClasses()
        .that()
        .resideInAPackage("io.mqroute.policies..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.pekko..", "scala..", "com.typesafe..")
        .because("a policy is a plain class a benchmark can call millions of times")
        .check(main);
  }

  /** Where an actor's messages are declared: one convention, the {@code *Protocol} class. */
  @Test
  void everyActorCommandInterfaceIsNestedInAProtocolClass() {
    classes()
        .that()
        .areInterfaces()
        .and()
        .haveSimpleNameEndingWith("Command")
        .should(beNestedInAProtocolClass())
        .check(main);
  }

  @Test
  void everyMessageIsDeclaredInAProtocolClass() {
    classes()
        .that(implementAnActorCommand())
        .should(beNestedInAProtocolClass())
        .because("an actor's messages are declared once, in its protocol, not in the actor")
        .check(main);
  }

  /**
   * Issue #16 item 4: a protocol keeps the request path (its {@code Data}) apart from the rest (its
   * {@code Control}: membership, node loss, drains, chaos, remounts, reports): the actor's command
   * interface is sealed and permits exactly those two (named {@code Data} and {@code Control}, or
   * {@code RouterData} and {@code RouterControl} where a protocol holds several actors' commands).
   * The protocols listed in {@link #NO_REQUEST_PATH} have no request path.
   */
  @Test
  void everyProtocolCommandIsSplitIntoDataAndControl() {
    classes()
        .that()
        .areInterfaces()
        .and()
        .haveSimpleNameEndingWith("Command")
        .and(
            DescribedPredicate.describe(
                "not in a protocol without a request path",
                (JavaClass c) ->
                    c.getEnclosingClass()
                        .map(e -> !NO_REQUEST_PATH.contains(e.getSimpleName()))
                        .orElse(true)))
        .should(permitExactlyDataAndControl())
        .check(main);
  }

  /**
   * Protocols with no request path at all: every message is control (a run's lifecycle and reports,
   * chaos, a load clone's end, a benchmark's client, a sweep's workers and client).
   */
  static final List<String> NO_REQUEST_PATH =
      List.of(
          "MachineProtocol",
          "PerturbationProtocol",
          "LoadCloneProtocol",
          "ClosedLoopClientProtocol",
          // a sweep hands out whole simulation runs, not requests: hello, offer, run, result parts
          "SweepWorkerProtocol",
          "SweepClientProtocol");

  static ArchCondition<JavaClass> permitExactlyDataAndControl() {
    return new ArchCondition<>("be sealed, permitting exactly a Data and a Control interface") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        Class<?>[] permitted = c.reflect().getPermittedSubclasses();
        List<String> names =
            permitted == null
                ? List.of()
                : java.util.Arrays.stream(permitted).map(Class::getSimpleName).sorted().toList();
        boolean ok =
            names.size() == 2
                && names.get(0).endsWith("Control")
                && names.get(1).endsWith("Data")
                && names
                    .get(0)
                    .substring(0, names.get(0).length() - "Control".length())
                    .equals(names.get(1).substring(0, names.get(1).length() - "Data".length()));
        events.add(
            new SimpleConditionEvent(
                c, ok, c.getName() + " permits " + (permitted == null ? "anything" : names)));
      }
    };
  }

  @Test
  void protocolClassesAreFinalHoldersOfMessages() {
    classes()
        .that()
        .haveSimpleNameEndingWith("Protocol")
        .and()
        .areTopLevelClasses()
        .should()
        .haveModifier(JavaModifier.FINAL)
        .andShould()
        .haveOnlyPrivateConstructors()
        .check(main);
  }

  @Test
  void everyActorHandlesTheCommandOfAProtocol() {
    classes()
        .that()
        .areAssignableTo(AbstractBehavior.class)
        .should(handleAProtocolCommand())
        .check(main);
  }

  /**
   * architecture.md §3: behaviours read time through the injected {@code NanoClock} and wait
   * through timers, so that the same code runs in virtual time. Only the runtime touches the wall
   * clock; tools that are not behaviours (the CLI, load and bench drivers' setup) may too.
   */
  @Test
  void behavioursNeverReadTheWallClockNorSleep() {
    noClasses()
        .that(
            DescribedPredicate.describe(
                "are behaviours or model code outside the runtime",
                (JavaClass c) ->
                    !c.getPackageName().startsWith("io.mqroute.runtime")
                        && (c.isAssignableTo(AbstractBehavior.class)
                            || inAnyPackage(
                                c,
                                "io.mqroute.actors",
                                "io.mqroute.chaos",
                                "io.mqroute.workload",
                                "io.mqroute.metrics",
                                "io.mqroute.experiment"))))
        .should()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(Thread.class, "sleep", long.class)
        .orShould()
        .callMethod(Instant.class, "now")
        .check(main);
  }

  @Test
  void noTwoTopLevelClassesShareAName() {
    Map<String, List<String>> byName =
        main.stream()
            .filter(JavaClass::isTopLevelClass)
            .filter(c -> !c.getSimpleName().equals("package-info"))
            .collect(
                Collectors.groupingBy(
                    JavaClass::getSimpleName,
                    Collectors.mapping(JavaClass::getName, Collectors.toList())));
    assertThat(byName.values().stream().filter(names -> names.size() > 1).toList())
        .as("top-level classes with the same simple name")
        .isEmpty();
  }

  @Test
  void theRulesSeeEveryModule() {
    for (String pkg :
        List.of(
            "io.mqroute.protocol",
            "io.mqroute.policies",
            "io.mqroute.config",
            "io.mqroute.runtime",
            "io.mqroute.metrics",
            "io.mqroute.actors",
            "io.mqroute.workload",
            "io.mqroute.experiment",
            "io.mqroute.chaos",
            "io.mqroute.cluster",
            "io.mqroute.nbd",
            "io.mqroute.cli")) {
      assertThat(main.stream().anyMatch(c -> inAnyPackage(c, pkg))).as(pkg).isTrue();
    }
  }

  private static boolean inAnyPackage(JavaClass c, String... roots) {
    for (String root : roots) {
      if (c.getPackageName().equals(root) || c.getPackageName().startsWith(root + ".")) {
        return true;
      }
    }
    return false;
  }

  private static boolean isProtocolCommand(JavaClass c) {
    return c.isInterface()
        && c.getSimpleName().endsWith("Command")
        && c.getEnclosingClass().map(e -> e.getSimpleName().endsWith("Protocol")).orElse(false);
  }

  private static DescribedPredicate<JavaClass> implementAnActorCommand() {
    return DescribedPredicate.describe(
        "implement an actor's command interface",
        c ->
            !c.isInterface()
                && c.getAllRawInterfaces().stream()
                    .anyMatch(
                        i ->
                            i.getSimpleName().endsWith("Command")
                                && inAnyPackage(i, "io.mqroute")));
  }

  private static ArchCondition<JavaClass> beNestedInAProtocolClass() {
    return new ArchCondition<>("be nested in a *Protocol class") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        Optional<JavaClass> outer = c.getEnclosingClass();
        boolean ok = outer.map(o -> o.getSimpleName().endsWith("Protocol")).orElse(false);
        events.add(
            new SimpleConditionEvent(
                c,
                ok,
                c.getName()
                    + (ok
                        ? " is nested in " + outer.get().getName()
                        : " is not nested in a *Protocol class")));
      }
    };
  }

  private static ArchCondition<JavaClass> handleAProtocolCommand() {
    return new ArchCondition<>("handle a Command interface of a *Protocol class") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        Optional<JavaType> superType = c.getSuperclass();
        boolean ok =
            superType
                .filter(JavaParameterizedType.class::isInstance)
                .map(t -> ((JavaParameterizedType) t).getActualTypeArguments())
                .filter(args -> args.size() == 1)
                .map(args -> args.get(0).toErasure())
                .map(ArchitectureTest::isProtocolCommand)
                .orElse(false);
        events.add(
            new SimpleConditionEvent(
                c,
                ok,
                c.getName() + (ok ? " handles" : " does not handle") + " a protocol's Command"));
      }
    };
  }
}
