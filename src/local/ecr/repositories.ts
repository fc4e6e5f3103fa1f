import { join } from 'node:path';
import { readJson, writeJsonAtomic } from '../state/files';

export interface StoredImage {
  digest: string;
  tags: string[];
  manifest: string;
  mediaType: string;
  pushedAt: number;
}

export interface StoredRepository {
  name: string;
  region: string;
  createdAt: number;
  scanOnPush: boolean;
  tagMutability: string;
  images: StoredImage[];
}

/** ECR repositories and the images recorded in them (by manifest), kept in the data folder. */
export class ImageRepositoryStore {
  private readonly file: string;
  private readonly repositories: Record<string, StoredRepository>;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'ecr.json');
    this.repositories = readJson<Record<string, StoredRepository>>(this.file, {});
  }

  private key(region: string, name: string): string {
    return `${region}/${name}`;
  }

  find(region: string, name: string): StoredRepository | undefined {
    const key = this.key(region, name);
    return Object.hasOwn(this.repositories, key) ? this.repositories[key] : undefined;
  }

  list(region: string): StoredRepository[] {
    return Object.values(this.repositories).filter(repository => repository.region === region);
  }

  create(repository: StoredRepository): void {
    this.repositories[this.key(repository.region, repository.name)] = repository;
    this.save();
  }

  delete(region: string, name: string): void {
    delete this.repositories[this.key(region, name)];
    this.save();
  }

  /** Saves a change made to a repository found here. */
  save(): void {
    writeJsonAtomic(this.file, this.repositories);
  }
}
