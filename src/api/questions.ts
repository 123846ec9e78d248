import { REL } from '../domain/relations';
import { questionAnswerSchema, type QuestionAnswer, type Workspace } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

/** POSTs {question} to the workspace's 'questions' link; null when the server found nothing (204). */
export async function ask(client: ApiClient, workspace: Workspace, question: string, options: RequestOptions = {}): Promise<QuestionAnswer | null> {
  const answer = await client.follow(workspace, REL.questions, { ...options, method: 'POST', body: { question }, schema: questionAnswerSchema });
  return answer ?? null;
}
