// The slice of OpenAPI 3.1 the gateway's documentation writes: plain JSON values.
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** An OpenAPI Operation Object (summary, parameters, requestBody, responses…). */
export type OpenApiOperation = JsonObject;
