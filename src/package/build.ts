import type { ArtifactInput, Artifacts } from './artifacts';

// Placeholder until the packaging work lands: replaced wholesale by src/package (issue 5).
export async function buildArtifacts(_input: ArtifactInput): Promise<Artifacts> {
  throw new Error('packaging not implemented yet');
}
