/** Injected services that do not write to the database: mail, caches, queues, logs, HTTP, storage. */
const NOT_DATABASE_SERVICES =
  /mail|cache|redis|queue|log|http|sms|socket|storage|s3|upload|stripe|search|elastic|kafka|rabbit|mq|jwt|config|crypt|hash/i;

/**
 * True when an injected field is named for a service of the project's data layer
 * (`this.cartService`, `this.tasksService`), not for mail, caches, queues or HTTP: a write
 * through it goes through the service's own repositories.
 */
export function isDatabaseServiceName(name: string | undefined): boolean {
  return name !== undefined && /service$/i.test(name) && !NOT_DATABASE_SERVICES.test(name);
}
