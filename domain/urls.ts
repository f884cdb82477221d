/** Absolute API addresses. `baseUrl` is scheme, host and any path prefix, e.g. "https://host/nms". */

export function apiUrl(baseUrl: string, path = ""): string {
  return `${baseUrl.replace(/\/+$/, "")}/api/${path}`;
}

export function switchUrl(baseUrl: string, groupId: number, deviceId: number): string {
  return apiUrl(baseUrl, `switches/${groupId}/${deviceId}/`);
}
