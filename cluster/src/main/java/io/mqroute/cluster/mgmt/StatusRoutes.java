package io.mqroute.cluster.mgmt;

import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.apache.pekko.http.javadsl.server.Directives.concat;
import static org.apache.pekko.http.javadsl.server.Directives.extractRequest;
import static org.apache.pekko.http.javadsl.server.Directives.get;
import static org.apache.pekko.http.javadsl.server.Directives.path;

import io.mqroute.cluster.NodeMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.StreamSupport;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.management.javadsl.ManagementRouteProvider;
import org.apache.pekko.management.javadsl.ManagementRouteProviderSettings;

/**
 * mqroute's routes on Pekko Management's HTTP endpoint: {@code GET /status} (JSON) and {@code GET
 * /metrics} (Prometheus text). Configured under {@code pekko.management.http.routes}; Pekko
 * Management creates it with the {@code (ExtendedActorSystem)} constructor. Bodies are computed per
 * request from {@link NodeMetrics}.
 */
public final class StatusRoutes implements ManagementRouteProvider {
  private final ExtendedActorSystem system;

  public StatusRoutes(ExtendedActorSystem system) {
    this.system = system;
  }

  @Override
  public Route routes(ManagementRouteProviderSettings settings) {
    return concat(
        serve("status", ContentTypes.APPLICATION_JSON, this::status),
        serve("metrics", ContentTypes.TEXT_PLAIN_UTF8, this::metrics));
  }

  /** GET {@code /name}: the text {@code body} makes at the time of the request. */
  private static Route serve(String name, ContentType.NonBinary type, Supplier<String> body) {
    return path(
        name,
        () ->
            get(
                () ->
                    extractRequest(
                        req ->
                            complete(
                                HttpResponse.create()
                                    .withEntity(HttpEntities.create(type, body.get()))))));
  }

  String status() {
    Cluster c = Cluster.get(system);
    return NodeReport.statusJson(c.selfAddress().toString(), roles(c), members(c), metricsOf());
  }

  String metrics() {
    Cluster c = Cluster.get(system);
    return NodeReport.prometheus(roles(c), members(c), metricsOf());
  }

  private NodeMetrics metricsOf() {
    return NodeMetrics.get(Adapter.toTyped(system));
  }

  private static List<String> roles(Cluster c) {
    return c.getSelfRoles().stream().filter(r -> !r.startsWith("dc-")).sorted().toList();
  }

  private static List<NodeReport.Member> members(Cluster c) {
    ClusterEvent.CurrentClusterState state = c.state();
    Set<Member> unreachable = state.getUnreachable();
    List<NodeReport.Member> out = new ArrayList<>();
    for (Member m : StreamSupport.stream(state.getMembers().spliterator(), false).toList()) {
      out.add(
          new NodeReport.Member(
              m.address().toString(),
              m.status().toString(),
              m.getRoles().stream().filter(r -> !r.startsWith("dc-")).sorted().toList(),
              !unreachable.contains(m)));
    }
    return out;
  }
}
