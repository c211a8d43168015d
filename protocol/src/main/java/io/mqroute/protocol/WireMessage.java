package io.mqroute.protocol;

/**
 * Marker for every message that may cross an ActorSystem boundary. {@code reference.conf} of this
 * module binds it to the project's Kryo serializer, so any ActorSystem with this jar on its
 * classpath serializes these messages with registered, explicit-id Kryo and never with Java
 * serialization.
 */
public interface WireMessage {}
