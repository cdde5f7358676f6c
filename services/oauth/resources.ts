/**
 * The resources the OAuth door issues tokens for (RFC 8707 resource indicators), each a path the token is bound to:
 * every MCP endpoint by its own URL, and the deck's base URL for all of them at once ("/").
 */
export interface ProtectedResource {
  /** The resource indicator a client asks for, exactly as the metadata states it. */
  url: string;
  /** What a token for it is bound to: the endpoint's path, or "/" for every MCP endpoint. */
  path: string;
  name: string;
  /** Where its Protected Resource Metadata (RFC 9728) is served: the well-known prefix before the path. */
  metadataPath: string;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The deck's protected resources, built once at start from its base URL and its MCP endpoints. */
export function protectedResources(base: string, endpoints: readonly { path: string; name: string }[]): ProtectedResource[] {
  return [
    { url: base, path: '/', name: 'the deck (every MCP endpoint)', metadataPath: WELL_KNOWN },
    ...endpoints.map((e) => ({ url: `${base}${e.path}`, path: e.path, name: e.name, metadataPath: `${WELL_KNOWN}${e.path}` })),
  ];
}

/** The resource a requested indicator names (a trailing slash is forgiven), or null when it is not the deck's. */
export function resourceNamed(resources: readonly ProtectedResource[], requested: string): ProtectedResource | null {
  const wanted = requested.endsWith('/') ? requested.slice(0, -1) : requested;
  return resources.find((r) => r.url === wanted) ?? null;
}

/** The Protected Resource Metadata document of one resource. */
export const resourceMetadata = (r: ProtectedResource, issuer: string, docs: string) => ({
  resource: r.url,
  authorization_servers: [issuer],
  bearer_methods_supported: ['header'],
  resource_name: r.name,
  resource_documentation: docs,
});

/**
 * The WWW-Authenticate challenge a 401 from an MCP endpoint carries (RFC 9728 section 5.1): where its metadata is;
 * `error="invalid_token"` when a bearer was sent and did not verify there (RFC 6750), none when no bearer came.
 */
export function challenges(base: string, r: ProtectedResource): { missing: string; invalid: string } {
  const missing = `Bearer resource_metadata="${base}${r.metadataPath}"`;
  return { missing, invalid: `${missing}, error="invalid_token"` };
}
