import { z } from 'zod';
import { ModelInfo } from '../../domain/models';
import { channel, Empty } from './common';

export const requests = {
  'models.list': channel(Empty, z.array(ModelInfo)),
} as const;

export const events = {} as const;
